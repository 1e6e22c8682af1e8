import { isSymmetricRelation } from '../../sdl/facts.js';
import type { FieldModel, SchemaModel } from '../../sdl/model.js';
import type { Store, Transaction, UpdateResult } from '../../store/port.js';
import { linkSymmetricEdge, unlinkSymmetricEdge } from './symmetric-edges.js';
import { unionsContaining } from './union-refs.js';
import { storedPath } from '../../query/schema-facts.js';

/**
 * Edge writes. An edge lives on exactly one side (the field with `storedHere`); its partner is derived
 * by query. So linking from the derived side writes the partner's stored field, and a one-to-one edge
 * first detaches whoever held the target before. A field that is its own inverse stores each edge on both
 * ends instead (symmetric-edges.ts).
 */

interface Edge {
  /** Type whose documents hold the edge. */
  holderType: string;
  holderField: FieldModel;
  holderId: string;
  targetId: string;
}

/**
 * Who is told about edge writes: the mutation's reference guard, which refuses the mutation when a write
 * would change an existing object the caller may not update (throwing rolls the transaction back).
 */
export interface EdgeWatch {
  /** Before a one-to-one link takes `targetId` from whichever other `holderType` object holds it in `field`. */
  beforeDetach(holderType: string, field: FieldModel, targetId: string, newHolderId: string): Promise<void>;
  /** After a write changed the edge `field` stored on the `holderType` object `holderId`. */
  changed(holderType: string, holderId: string, field: FieldModel): Promise<void>;
}

function storedEdge(model: SchemaModel, ownerType: string, field: FieldModel, ownerId: string, targetId: string): Edge {
  if (field.storedHere !== false) return { holderType: ownerType, holderField: field, holderId: ownerId, targetId };
  const inverse = field.inverse;
  const holder = inverse ? model.types.get(inverse.type)?.fieldsByName.get(inverse.field) : undefined;
  if (!inverse || !holder) throw new Error(`${ownerType}.${field.name} is derived but has no stored inverse`);
  return { holderType: inverse.type, holderField: holder, holderId: targetId, targetId: ownerId };
}

/** The stored partner of a single-valued derived side is single too: one-to-one. */
function isOneToOne(model: SchemaModel, edge: Edge): boolean {
  if (edge.holderField.list || !edge.holderField.inverse) return false;
  const partner = model.types.get(edge.holderField.inverse.type)?.fieldsByName.get(edge.holderField.inverse.field);
  return partner !== undefined && !partner.list;
}

export async function linkEdge(model: SchemaModel, store: Store, tx: Transaction, ownerType: string, field: FieldModel, ownerId: string, targetId: string, watch?: EdgeWatch): Promise<void> {
  if (isSymmetricRelation(ownerType, field)) return linkSymmetricEdge(store, tx, ownerType, field, ownerId, targetId, watch);
  const edge = storedEdge(model, ownerType, field, ownerId, targetId);
  const collection = store.collection(edge.holderType);
  const name = storedPath(edge.holderField);
  let result: UpdateResult;
  if (edge.holderField.list) {
    result = await collection.updateMany({ _id: edge.holderId }, { $addToSet: { [name]: edge.targetId } }, { tx });
  } else {
    if (isOneToOne(model, edge)) {
      await watch?.beforeDetach(edge.holderType, edge.holderField, edge.targetId, edge.holderId);
      await collection.updateMany({ [name]: edge.targetId, _id: { $ne: edge.holderId } }, { $unset: { [name]: '' } }, { tx });
    }
    result = await collection.updateMany({ _id: edge.holderId }, { $set: { [name]: edge.targetId } }, { tx });
  }
  if (result.modified > 0) await watch?.changed(edge.holderType, edge.holderId, edge.holderField);
}

export async function unlinkEdge(model: SchemaModel, store: Store, tx: Transaction, ownerType: string, field: FieldModel, ownerId: string, targetId: string, watch?: EdgeWatch): Promise<void> {
  if (isSymmetricRelation(ownerType, field)) return unlinkSymmetricEdge(store, tx, ownerType, field, ownerId, targetId, watch);
  const edge = storedEdge(model, ownerType, field, ownerId, targetId);
  const collection = store.collection(edge.holderType);
  const name = storedPath(edge.holderField);
  const result = edge.holderField.list
    ? await collection.updateMany({ _id: edge.holderId }, { $pull: { [name]: edge.targetId } }, { tx })
    : await collection.updateMany({ _id: edge.holderId, [name]: edge.targetId }, { $unset: { [name]: '' } }, { tx });
  if (result.modified > 0) await watch?.changed(edge.holderType, edge.holderId, edge.holderField);
}

/** After deleting objects of `typeName`, no stored edge may point at them. */
export async function detachDeleted(model: SchemaModel, store: Store, tx: Transaction, typeName: string, ids: string[]): Promise<void> {
  const deletedType = model.types.get(typeName);
  const targets = new Set([typeName, ...(deletedType?.implements ?? []), ...unionsContaining(model, typeName)]);
  for (const type of model.types.values()) {
    if (type.kind !== 'type') continue;
    for (const field of type.fields) {
      if (field.of.kind !== 'relation' || field.storedHere === false || !targets.has(field.of.target)) continue;
      if (field.lambda || field.custom) continue;
      const collection = store.collection(type.name);
      const path = storedPath(field);
      if (field.list) {
        await collection.updateMany({ [path]: { $in: ids } }, { $pull: { [path]: { $in: ids } } }, { tx });
      } else {
        await collection.updateMany({ [path]: { $in: ids } }, { $unset: { [path]: '' } }, { tx });
      }
    }
  }
}
