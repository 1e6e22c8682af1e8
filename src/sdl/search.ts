import { Kind, type DirectiveNode } from 'graphql';
import { describeValue, directiveArguments, listItemsOf, nameValueOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { FieldKind, ScalarName, SearchIndex } from './model.js';
import { checkIndexCombination } from './search-combinations.js';

/** Which `@search` indexes fit which field type, and the one a bare `@search` means (Dgraph's rules). */
interface SearchRule {
  allowed: readonly SearchIndex[];
  default: SearchIndex;
}

const SCALAR_RULES: Partial<Record<ScalarName, SearchRule>> = {
  String: { allowed: ['hash', 'exact', 'regexp', 'term', 'fulltext', 'ngram', 'trigram'], default: 'term' },
  Int: { allowed: ['int'], default: 'int' },
  Int64: { allowed: ['int64'], default: 'int64' },
  Float: { allowed: ['float'], default: 'float' },
  Boolean: { allowed: ['bool'], default: 'bool' },
  DateTime: { allowed: ['year', 'month', 'day', 'hour'], default: 'year' },
};

const ENUM_RULE: SearchRule = { allowed: ['hash', 'exact', 'trigram', 'regexp', 'ngram'], default: 'hash' };

const ALL_INDEXES: readonly SearchIndex[] = [
  'hash', 'exact', 'term', 'fulltext', 'ngram', 'trigram', 'regexp', 'int', 'int64', 'float', 'bool', 'day', 'month', 'year', 'hour',
];

function isSearchIndex(name: string): name is SearchIndex {
  return (ALL_INDEXES as readonly string[]).includes(name);
}

/**
 * The explicit index names a field's `@search` directive asks for, after checking that each fits the
 * field's type. Reports every misfit; returns the indexes that were accepted.
 */
export function searchIndexesOf(directive: DirectiveNode, of: FieldKind, errors: ErrorSink, describe: Describe): SearchIndex[] {
  if (of.kind === 'relation') {
    errors.at(describe(`@search does not apply to a relation (${of.target}); filter on the related type's fields instead`), directive);
    return [];
  }
  if (of.kind === 'scalar' && of.scalar === 'ID') {
    errors.at(describe('@search does not apply to an ID field (ID fields are filtered with `id: [ID!]` already)'), directive);
    return [];
  }
  const rule = of.kind === 'enum' ? ENUM_RULE : SCALAR_RULES[of.scalar];
  if (!rule) return [];
  const typeLabel = of.kind === 'enum' ? `enum ${of.enumName}` : of.scalar;

  const by = directiveArguments(directive, { allowed: ['by'] }, errors, describe).get('by');
  if (!by) return [rule.default];
  if (by.value.kind !== Kind.LIST) {
    const written = nameValueOf(by.value) ?? 'hash';
    errors.at(describe(`the @search directive requires a list argument, like @search(by: [${JSON.stringify(written)}])`), by.value);
    return [];
  }

  const items = listItemsOf(by.value);
  // Dgraph reads an empty list as a bare @search: the type's default index.
  if (items.length === 0) return [rule.default];
  const chosen: SearchIndex[] = [];
  for (const item of items) {
    const name = nameValueOf(item);
    if (name === undefined || !isSearchIndex(name)) {
      errors.at(describe(`@search(by: [${describeValue(item)}]) is not an index (known: ${ALL_INDEXES.join(', ')})`), item);
    } else if (!rule.allowed.includes(name)) {
      errors.at(describe(`@search(by: [${name}]) does not apply to ${typeLabel} (allowed: ${rule.allowed.join(', ')})`), item);
    } else if (!chosen.includes(name)) {
      chosen.push(name);
    }
  }
  if (chosen.includes('hash') && chosen.includes('exact')) {
    errors.at(describe('@search(by: [hash, exact]): hash and exact cannot be used together; exact alone also answers eq'), by);
  }
  checkIndexCombination(chosen, by, errors, describe);
  return chosen;
}
