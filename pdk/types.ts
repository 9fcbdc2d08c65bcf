/**
 * The seam types hook authors see, generated from the host's single seam
 * contract (`npm run gen` writes `./generated/seams.ts` from `host/seams`).
 * This file is the one place that names where they come from.
 */
// Every type the generator writes, so a new seam's types reach `hookbox/pdk`
// with no list to keep (tests/pdk/exports.spec.ts holds it).
export type * from './generated/seams.ts';
