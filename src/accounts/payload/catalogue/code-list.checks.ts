/**
 * The code lists' values in the account (src/catalogue/code-lists.ts says where each list's values
 * occur): once a list is uploaded, a value it lacks is refused with the list's code. Blank values
 * are left to the form checks (the reference's default is often "").
 */
import { CODE_LISTS, type CodeList } from '../../../catalogue/code-lists.ts';
import type { ReferenceData } from '../../../catalogue/reference-data.ts';
import type { CheckContext } from '../../../validation/check-context.ts';
import type { AccountPayload } from '../account-payload.schema.ts';

interface Place {
  list: CodeList;
  /** The value's path, split: `[]` walks every item of a list. */
  segments: readonly string[];
  /** How many leading parts of the concrete path the error's attr keeps. */
  attrParts: number;
}

// Split once, at load: a check walks these.
const PLACES: readonly Place[] = CODE_LISTS.flatMap((list) =>
  list.places.map((place) => ({
    list,
    segments: place.value.replaceAll('[]', '.[]').split('.'),
    attrParts: (place.attr ?? place.value).replaceAll('[]', '.[]').split('.').length,
  })),
);

export function checkCodeLists(ctx: CheckContext, payload: AccountPayload, reference: ReferenceData): void {
  for (const place of PLACES) {
    const values = reference.list(place.list.name);
    if (values) walk(ctx, place, values, payload, 0, '');
  }
}

function walk(
  ctx: CheckContext,
  place: Place,
  values: ReadonlySet<string>,
  at: unknown,
  depth: number,
  path: string,
): void {
  if (at === null || at === undefined) return;
  if (depth === place.segments.length) {
    if (typeof at !== 'string' || at.trim() === '' || values.has(at) || !ctx.isSound(path)) return;
    const attr = path.split('.').slice(0, place.attrParts).join('.');
    if (ctx.errors.some((e) => e.attr === attr && e.code === place.list.code)) return;
    ctx.report(
      attr,
      place.list.code,
      `The ${place.list.noun} "${at}" is not in the uploaded ${place.list.name} list.`,
    );
    return;
  }
  const segment = place.segments[depth];
  if (segment === '[]') {
    if (!Array.isArray(at)) return;
    for (let i = 0; i < at.length; i++) walk(ctx, place, values, at[i], depth + 1, `${path}.${i}`);
    return;
  }
  if (typeof at !== 'object') return;
  const next = (at as Record<string, unknown>)[segment];
  walk(ctx, place, values, next, depth + 1, path === '' ? segment : `${path}.${segment}`);
}
