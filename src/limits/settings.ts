/**
 * The operation limits: what each one bounds, its default, and the flag and environment variable that set
 * it (server/config.ts builds its options from this table, and every refusal names them).
 *
 * Defaults are far above what an ordinary client sends (the README's queries, `queryUser(first: 100) {
 * tasks(first: 10) }`, the federation demo through a gateway, a gateway's `_entities` batches) and below
 * what harms the service:
 * - maxTokens 15,000 and maxNesting 500 are Apollo Router's `parser_max_tokens` and `parser_max_recursion`;
 *   graphql-js parses recursively and overflows the stack near 1,500 nested brackets, so nesting is
 *   measured on the text before parsing and its flag is capped well below that.
 * - maxDepth 64: the introspection query is 13 fields deep; an application's deepest paths are around 10.
 * - maxAliases 1000: generated client code aliases heavily (bench/persisted.ts's detail screen has 150);
 *   aliased object fields are counted by the cost, so this only bounds cheap scalar repetition.
 * - maxDirectives 100: a page toggling many fields with @include/@skip stays far below; thousands of
 *   directives only inflate validation.
 * - maxCost 10,000,000,000: the estimate counts objects, multiplying list sizes down the nesting (a list
 *   field counts its `first`, else the default page size 1000). Dgraph-style clients leave relations
 *   unpaged: this service's own end-to-end suites send three unpaged nested lists
 *   (`queryAlbum { artists { albums { title } } }`, about 1,000,000,000) and `queryUser { tasks(first:
 *   10000) }` (10,000,000); a gateway's `_entities` batch of 1,000 representations with an unpaged list
 *   under each costs 1,000,000. Four unpaged nested lists (1,000,000,000,000) and the 40-level
 *   `crew { missions }` query (1e123) are refused. What the estimate lets through is bounded at run time
 *   by the execution budgets.
 * - maxInputDepth 32: Dgraph-style filters nest and/or/not a few levels (`and: [{ ... }]` counts 3).
 *   The embedded store's matcher (mingo) slows down fast with nesting: one `not` chain costs about 3 ms
 *   at depth 32, 70 ms at 64, 90 ms at 128 and 0.5 s at 256 (measured on this service's machines), so
 *   the flag stops at 128; the filter compiler and the stores' recursion are stack-safe far beyond that.
 */
export interface OperationLimits {
  maxTokens: number;
  maxNesting: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  maxInputDepth: number;
}

export type OperationLimitName = keyof OperationLimits;

export interface OperationLimitDefinition {
  flag: string;
  env: string;
  default: number;
  /** The largest value the flag accepts (for limits that guard the stack). */
  max: number;
  /** What the limit bounds, for --help and the README. */
  description: string;
}

export const OPERATION_LIMITS: Readonly<Record<OperationLimitName, OperationLimitDefinition>> = {
  maxTokens: { flag: '--max-tokens', env: 'MAX_TOKENS', default: 15_000, max: Number.MAX_SAFE_INTEGER, description: 'most lexical tokens in one operation document' },
  maxNesting: { flag: '--max-nesting', env: 'MAX_NESTING', default: 500, max: 1000, description: 'deepest nesting of brackets { [ ( in the operation text, checked before parsing' },
  maxDepth: { flag: '--max-depth', env: 'MAX_DEPTH', default: 64, max: 1000, description: 'deepest field nesting of an operation, fragments included' },
  maxAliases: { flag: '--max-aliases', env: 'MAX_ALIASES', default: 1000, max: Number.MAX_SAFE_INTEGER, description: 'most aliases in an operation, fragments included' },
  maxDirectives: { flag: '--max-directives', env: 'MAX_DIRECTIVES', default: 100, max: Number.MAX_SAFE_INTEGER, description: 'most directives in an operation, fragments included' },
  maxCost: { flag: '--max-cost', env: 'MAX_COST', default: 10_000_000_000, max: Number.MAX_SAFE_INTEGER, description: 'largest estimated number of objects an operation may return (list sizes multiplied down the nesting)' },
  maxInputDepth: { flag: '--max-input-depth', env: 'MAX_INPUT_DEPTH', default: 32, max: 128, description: 'deepest nesting of objects and lists in an argument or variable value' },
};

export const DEFAULT_OPERATION_LIMITS: Readonly<OperationLimits> = Object.freeze(
  Object.fromEntries(Object.entries(OPERATION_LIMITS).map(([name, definition]) => [name, definition.default])) as unknown as OperationLimits,
);

/** The limits in force: the given ones over the defaults. */
export function operationLimits(given: Partial<OperationLimits> = {}): OperationLimits {
  const limits = { ...DEFAULT_OPERATION_LIMITS };
  for (const name of Object.keys(OPERATION_LIMITS) as OperationLimitName[]) {
    const value = given[name];
    if (value !== undefined) limits[name] = value;
  }
  return limits;
}

/** "(raise it with --max-depth or MAX_DEPTH)": the end of every refusal. */
export function howToRaise(name: OperationLimitName): string {
  const { flag, env } = OPERATION_LIMITS[name];
  return `raise it with ${flag} or ${env}`;
}
