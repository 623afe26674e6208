import { useEffect, useState } from 'preact/hooks';

/** `value` once it has stopped changing for `ms`: searches, live previews and counts ask the API once per pause in typing. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
