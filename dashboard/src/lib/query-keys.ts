// The first part of the query keys that more than one feature reads or changes. A feature keeps
// its own keys under its own root in its api/ folder; only the roots are shared, so a write in
// one feature can mark another's reads stale without importing it.
export const queryRoots = {
  /** The owner's block rows: names, counts, tags (features/blocks, app/routes/work). */
  blocks: ['blocks'] as const,
};
