/** Datetimes on the wire take the interface's form `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). */
export function wireDatetime(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = typeof value === 'string' ? new Date(value) : value;
  return `${d.toISOString().slice(0, 19)}Z`;
}
