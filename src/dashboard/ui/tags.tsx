/**
 * An email's tags as `key: value` chips; nothing when it has none. With `link`, each chip is a link (the activity
 * of the emails carrying that tag, for example).
 */
export function Tags({ tags, link }: { tags: Record<string, string>; link?: (key: string, value: string) => string }) {
  const entries = Object.entries(tags);
  if (entries.length === 0) return null;
  return (
    <ul class="tags" aria-label="Tags">
      {entries.map(([key, value]) => {
        const text = (
          <>
            <span class="tag-key">{key}</span>: {value}
          </>
        );
        return (
          <li key={key} class={link ? 'tag tag-link' : 'tag'}>
            {link ? (
              <a href={link(key, value)} title={`Only the activity tagged ${key}: ${value}`}>
                {text}
              </a>
            ) : (
              text
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The activity feed's tag filter, `key:value` as GET /activity takes it (docs/activity.md). */
export const tagFilter = (key: string, value: string) => `${key}:${value}`;
