/**
 * The programs' view of the generated types: the repository's copy, so `tsc --noEmit` checks the
 * programs against it. The test replaces this file with types generated from the live document.
 */
export type { components, operations, paths } from '../../../generated/openapi.d.ts';
