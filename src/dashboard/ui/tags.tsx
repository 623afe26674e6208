/** An email's tags as `key: value` chips; nothing when it has none. */
export function Tags({ tags }: { tags: Record<string, string> }) {
  const entries = Object.entries(tags);
  if (entries.length === 0) return null;
  return (
    <ul class="tags" aria-label="Tags">
      {entries.map(([key, value]) => (
        <li key={key} class="tag">
          <span class="tag-key">{key}</span>: {value}
        </li>
      ))}
    </ul>
  );
}
