import type { InputModel } from '../sdl/model.js';

/** A user-declared `input` type, printed as declared (descriptions included). */
export function userInputBlock(input: InputModel): string {
  const fields = input.fields.map((field) => {
    const line = `${field.name}: ${field.typeText}`;
    return `  ${field.description ? `${JSON.stringify(field.description)} ${line}` : line}`;
  });
  const block = `input ${input.name} {\n${fields.join('\n')}\n}`;
  return input.description ? `${JSON.stringify(input.description)}\n${block}` : block;
}
