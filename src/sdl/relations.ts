import { fieldMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { TypeDraft } from './types.js';

/**
 * Relation pairs (`@hasInverse`) and which side stores the ids.
 *
 * A pair is a field with `@hasInverse(field: p)` and the field `p` on its target type. `inverse` is set on
 * both; its `type` is always the field's own target type (for a field inherited from an interface the
 * partner points back at the interface, so the partner's `inverse` names the interface field).
 * Storage: a single side stores over a list side; with equal cardinality the side declaring `@hasInverse`
 * stores; when both declare, the smaller `Type.field` (by the declaring type) stores. A field that names
 * itself is its own partner: it stores, and its edges are kept symmetric (see `isSymmetricRelation`).
 * On a relation to an interface the pair may be declared on either side (Dgraph allows both): a type's
 * `posts: [Post] @hasInverse(field: author)` names the interface's field, which every implementing type inherits.
 */
export function resolveRelations(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  const partnerOf = new Map<FieldDraft, FieldDraft>();
  // Keyed by the declaring definition, so the copies a field's implementing types inherit share the entry.
  const namedBy = new Map<string, FieldDraft>();

  for (const draft of drafts.values()) {
    for (const field of draft.fields) {
      const partner = declaredPartner(draft, field, drafts, errors);
      if (!partner) continue;
      partnerOf.set(field, partner);
      const key = pairKey(field.model.of, partner);
      const earlier = namedBy.get(key) ?? clashingPair(namedBy, key, partner, drafts);
      if (earlier && earlier.model.name !== field.model.name && field.origin === draft.name) {
        errors.at(
          fieldMessage(draft.name, field.model.name,
            `@hasInverse(field: ${partner.model.name}): ${partner.origin}.${partner.model.name} is already the inverse of ${earlier.origin}.${earlier.model.name}`),
          field.directives.get('hasInverse') ?? field.node,
        );
        continue;
      }
      namedBy.set(key, field);
    }
  }

  for (const draft of drafts.values()) {
    for (const field of draft.fields) {
      const { model } = field;
      if (model.of.kind !== 'relation') continue;
      if (model.lambda || model.custom) {
        model.storedHere = false;
        continue;
      }
      const partner = partnerOf.get(field) ?? namedBy.get(`${draft.name}.${model.name}`) ?? namedBy.get(declaredName(field));
      if (!partner) {
        model.storedHere = true;
        continue;
      }
      model.inverse = { type: model.of.target, field: partner.model.name };
      model.storedHere = storesIds(field, partner);
    }
  }
}

/**
 * The partner a field's own `@hasInverse` names, after checking the pair; undefined when it has none or the
 * pair is invalid. Errors are reported once, on the declaring definition (not on inherited copies).
 */
function declaredPartner(draft: TypeDraft, field: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): FieldDraft | undefined {
  const { model } = field;
  if (model.hasInverse === undefined || model.of.kind !== 'relation') return undefined;
  const report = field.origin === draft.name;
  const fail = (message: string): undefined => {
    if (report) errors.at(fieldMessage(draft.name, model.name, message), field.directives.get('hasInverse') ?? field.node);
    return undefined;
  };
  const wanted = model.hasInverse;
  const target = drafts.get(model.of.target);
  if (!target) return undefined;
  const partner = target.fieldsByName.get(wanted);
  if (!partner) return fail(`@hasInverse(field: ${wanted}): type ${target.name} has no field ${wanted}`);
  const partnerTarget = partner.model.of.kind === 'relation' ? partner.model.of.target : undefined;
  if (partnerTarget !== field.origin) {
    if (partnerTarget !== undefined && draft.implements.includes(partnerTarget)) {
      // Every implementation of the interface must share the pair, so it belongs on the interface.
      return fail(`@hasInverse(field: ${wanted}): ${target.name}.${wanted} refers to interface ${partnerTarget}; declare ${model.name} with @hasInverse on ${partnerTarget}`);
    }
    return fail(`@hasInverse(field: ${wanted}): ${target.name}.${wanted} has type ${partner.model.typeText}, but an inverse must refer back to ${draft.name}`);
  }
  if (partner.model.lambda || partner.model.custom) {
    return fail(`@hasInverse(field: ${wanted}): ${target.name}.${wanted} is computed by @lambda/@custom and cannot be an inverse`);
  }
  if (partner.model.hasInverse !== undefined && partner.model.hasInverse !== model.name) {
    return fail(`@hasInverse(field: ${wanted}): ${target.name}.${wanted} names ${partner.model.hasInverse} as its inverse, not ${model.name}`);
  }
  return partner;
}

/**
 * The field a pair names, by the type it is named on: a relation to a concrete type names that type's copy
 * of an inherited field (Dgraph gives each implementing type's copy its own @hasInverse, so
 * `questions: [Question] @hasInverse(field: author)` and `answers: [Answer] @hasInverse(field: author)`
 * pair with Question.author and Answer.author, both inherited from Post); a relation to an interface names
 * the interface's field, which every implementing type's copy shares.
 */
function pairKey(relation: FieldDraft['model']['of'], partner: FieldDraft): string {
  return relation.kind === 'relation' ? `${relation.target}.${partner.model.name}` : declaredName(partner);
}

/**
 * A pair already naming the same field at the other level: an interface's field paired, and now one
 * implementing type's copy of it (or the reverse).
 */
function clashingPair(namedBy: ReadonlyMap<string, FieldDraft>, key: string, partner: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>): FieldDraft | undefined {
  const [typeName] = key.split('.');
  if (typeName !== partner.origin) return namedBy.get(declaredName(partner));
  for (const draft of drafts.values()) {
    if (!draft.implements.includes(partner.origin)) continue;
    const earlier = namedBy.get(`${draft.name}.${partner.model.name}`);
    if (earlier) return earlier;
  }
  return undefined;
}

function declaredName(field: FieldDraft): string {
  return `${field.origin}.${field.model.name}`;
}

function storesIds(field: FieldDraft, partner: FieldDraft): boolean {
  if (field.model.list !== partner.model.list) return !field.model.list;
  const declares = field.model.hasInverse !== undefined;
  const partnerDeclares = partner.model.hasInverse !== undefined;
  if (declares !== partnerDeclares) return declares;
  return `${field.origin}.${field.model.name}` <= `${partner.origin}.${partner.model.name}`;
}
