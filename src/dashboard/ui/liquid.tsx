/**
 * Text with Liquid in it (a subject, a preheader) as a person reads it in a list: the text as it is, and each
 * `{{ variable }}` as a tag naming what goes there, so "Hi {{ contact.firstName }}" reads "Hi [contact.firstName]".
 * The exact source stays in the title, and in the editor.
 */
export function LiquidText({ text }: { text: string }) {
  const parts = text.split(/(\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\})/g);
  if (parts.length === 1) return <>{text}</>;
  return (
    <span class="liquid-text" title={text}>
      {parts.map((part, i) =>
        /^\{[{%]/.test(part) ? (
          <span key={i} class="liquid-tag">
            {part.replace(/^\{[{%]-?\s*|\s*-?[}%]\}$/g, '')}
          </span>
        ) : (
          part
        ),
      )}
    </span>
  );
}
