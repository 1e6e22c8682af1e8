import { Kind, type FieldNode, type FragmentDefinitionNode, type FragmentSpreadNode, type InlineFragmentNode, type SelectionSetNode } from 'graphql';

/**
 * A number folded over an operation's selections: a field's value from its own selection set's value,
 * and how sibling values combine (sum for counts, max for depth).
 */
export interface SelectionMeasure {
  field(node: FieldNode, inner: number): number;
  inlineFragment(node: InlineFragmentNode, inner: number): number;
  fragmentSpread(node: FragmentSpreadNode, fragment: number): number;
  /** A fragment definition's value from its selection set's value (default: that value). */
  fragmentDefinition?(node: FragmentDefinitionNode, inner: number): number;
  combine(a: number, b: number): number;
}

/**
 * Folds `measure` over a selection set, following fragment spreads like Apollo's RecursiveSelectionsLimit:
 * each fragment's value is computed once (`memo`), a fragment met again while it is being measured (a
 * cycle) counts 0, and an unknown fragment counts 0; the spec rules (NoFragmentCycles, KnownFragmentNames)
 * report those.
 */
export function measureSelectionSet(
  selectionSet: SelectionSetNode | undefined,
  measure: SelectionMeasure,
  fragments: (name: string) => FragmentDefinitionNode | null | undefined,
  memo: Map<string, number> = new Map(),
  visiting: Set<string> = new Set(),
): number {
  if (!selectionSet) return 0;
  let total = 0;
  for (const selection of selectionSet.selections) {
    let value: number;
    switch (selection.kind) {
      case Kind.FIELD:
        value = measure.field(selection, measureSelectionSet(selection.selectionSet, measure, fragments, memo, visiting));
        break;
      case Kind.INLINE_FRAGMENT:
        value = measure.inlineFragment(selection, measureSelectionSet(selection.selectionSet, measure, fragments, memo, visiting));
        break;
      case Kind.FRAGMENT_SPREAD:
        value = measure.fragmentSpread(selection, fragmentValue(selection.name.value, measure, fragments, memo, visiting));
        break;
    }
    total = measure.combine(total, value);
  }
  return total;
}

function fragmentValue(
  name: string,
  measure: SelectionMeasure,
  fragments: (name: string) => FragmentDefinitionNode | null | undefined,
  memo: Map<string, number>,
  visiting: Set<string>,
): number {
  const known = memo.get(name);
  if (known !== undefined) return known;
  const fragment = fragments(name);
  if (!fragment || visiting.has(name)) return 0;
  visiting.add(name);
  const inner = measureSelectionSet(fragment.selectionSet, measure, fragments, memo, visiting);
  const value = measure.fragmentDefinition ? measure.fragmentDefinition(fragment, inner) : inner;
  visiting.delete(name);
  memo.set(name, value);
  return value;
}
