import { Kind, print, type NamedTypeNode, type TypeNode } from 'graphql';

/** The wrappers around a field's or argument's named type, read off its declared type. */
export interface TypeShape {
  typeText: string;
  namedType: string;
  namedTypeNode: NamedTypeNode;
  list: boolean;
  nonNull: boolean;
  itemNonNull: boolean;
  /** Lists of lists (`[[T]]`): not supported by the storage model. */
  nestedList: boolean;
}

export function shapeOf(type: TypeNode): TypeShape {
  const nonNull = type.kind === Kind.NON_NULL_TYPE;
  const outer = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
  if (outer.kind === Kind.NAMED_TYPE) {
    return { typeText: print(type), namedType: outer.name.value, namedTypeNode: outer, list: false, nonNull, itemNonNull: false, nestedList: false };
  }
  const item = outer.type;
  const itemNonNull = item.kind === Kind.NON_NULL_TYPE;
  const inner = item.kind === Kind.NON_NULL_TYPE ? item.type : item;
  let named: TypeNode = inner;
  while (named.kind !== Kind.NAMED_TYPE) named = named.type;
  return {
    typeText: print(type),
    namedType: named.name.value,
    namedTypeNode: named,
    list: true,
    nonNull,
    itemNonNull,
    nestedList: inner.kind !== Kind.NAMED_TYPE,
  };
}
