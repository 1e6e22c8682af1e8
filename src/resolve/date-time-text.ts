/**
 * A stored DateTime (`Date#toISOString()`, UTC with milliseconds) as Dgraph answers it: Go's
 * `time.RFC3339` layout (graphql/schema/completion.go), whole seconds and `Z` for UTC:
 * `2000-01-01T00:00:00.000Z` → `2000-01-01T00:00:00Z`. The stored value keeps its milliseconds (filters
 * and order use them); like Dgraph, an answer does not show them.
 */
export function dgraphDateTimeText(iso: string): string {
  return iso.replace(/\.\d+Z$/, 'Z');
}
