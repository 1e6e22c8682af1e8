import type { RemoteFieldModel, RemoteTypeModel } from '../sdl/model.js';

/**
 * A `@remote` type, interface or union as the generated API declares it: as written (a type with its
 * inherited interface fields first), and nothing generated for it (Dgraph's `@remote`).
 */
export function remoteTypeBlock(type: RemoteTypeModel): string {
  const describe = type.description ? `${JSON.stringify(type.description)}\n` : '';
  if (type.kind === 'union') return `${describe}union ${type.name} = ${type.members.join(' | ')}`;
  const implementsPart = type.implements.length > 0 ? ` implements ${type.implements.join(' & ')}` : '';
  return `${describe}${type.kind} ${type.name}${implementsPart} {\n${type.fields.map((field) => `  ${fieldLine(field)}`).join('\n')}\n}`;
}

function fieldLine(field: RemoteFieldModel): string {
  const args = field.args.length === 0 ? '' : `(${field.args.map((arg) => `${arg.name}: ${arg.typeText}`).join(', ')})`;
  const deprecated = field.deprecationReason === undefined ? '' : ` @deprecated(reason: ${JSON.stringify(field.deprecationReason)})`;
  const line = `${field.name}${args}: ${field.typeText}${deprecated}`;
  return field.description ? `${JSON.stringify(field.description)} ${line}` : line;
}
