import { useState } from 'preact/hooks';
import { Empty } from './feedback';

/** A page of a cursor list as the API answers it (docs/architecture.md "Pagination"). */
export interface CursorPage<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

/**
 * Cursor paging: the cursors of the pages already seen are kept, so "Previous" goes back without the API
 * having to page backwards.
 */
export function CursorPager({ trail, next, onMove }: { trail: string[]; next: string | null; onMove: (trail: string[]) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={trail.length === 0} onClick={() => onMove(trail.slice(0, -1))}>
        Previous
      </button>
      <span>Page {trail.length + 1}</span>
      <button type="button" disabled={!next} onClick={() => next && onMove([...trail, next])}>
        Next
      </button>
    </nav>
  );
}

/**
 * A cursor list's trail (for `CursorPager`), the cursor of the page shown, and `restart`: wraps a search's or a
 * filter's setter so that a new value starts again at the first page.
 */
export function useCursorTrail() {
  const [trail, setTrail] = useState<string[]>([]);
  const restart =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setTrail([]);
    };
  return { trail, setTrail, cursor: trail.at(-1), restart };
}

export function OffsetPager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {Math.max(totalPages, 1)}
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export interface Column<T> {
  title: string;
  cell: (row: T) => preact.ComponentChildren;
  /** Hidden at phone width. */
  wide?: boolean;
}

/** A table with a caption for screen readers; rows are keyed by `key`. With no row, `empty` says why instead. */
export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty?: preact.ComponentChildren;
}) {
  if (rows.length === 0 && empty) return <Empty>{empty}</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title} scope="col" class={c.wide ? 'wide' : ''}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.title} class={c.wide ? 'wide' : ''}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
