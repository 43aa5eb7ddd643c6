/** Where a filter is being asked: search results, a load, or a tool already loaded. */
export type FilterPhase = 'search' | 'load' | 'active';
