// The results area's query keys: under the block, so a delete can mark all of them stale.
export const resultKeys = {
  all: (blockId: string) => ['results', blockId] as const,
  responses: (blockId: string) => ['results', blockId, 'responses'] as const,
  summary: (blockId: string, timeZone: string) =>
    ['results', blockId, 'summary', timeZone] as const,
};
