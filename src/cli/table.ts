/** Plain-text tables for the CLI's human output. */
export function renderTable(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join('\n');
}

/** Key/value lines for one record. */
export function renderRecord(rec: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(rec).map((k) => k.length));
  return Object.entries(rec)
    .map(
      ([k, v]) =>
        `${k.padEnd(width)}  ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? '')}`,
    )
    .join('\n');
}
