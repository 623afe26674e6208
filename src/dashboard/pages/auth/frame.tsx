/** The centred card the pages without a session share. */
export function AuthFrame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  document.title = `${title} · Postwire`;
  return (
    <main id="main" class="auth">
      <div class="card auth-card">
        <p class="brand">Postwire</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
