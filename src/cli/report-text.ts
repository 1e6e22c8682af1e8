import type { SchemaChangeReport } from '../schema-changes/report.js';

/** A schema change report as lines for a terminal or a CI log: one section per kind of change, empty ones left out. */
export function reportText(report: SchemaChangeReport): string {
  const lines: string[] = [];
  const list = (title: string, items: readonly string[]) => {
    if (items.length > 0) lines.push(`${title}: ${items.join(', ')}`);
  };
  list('types added', report.types.added);
  list('types removed', report.types.removed);
  list('fields added', report.fields.added.map((field) => `${field.type}.${field.field}: ${field.typeText}`));
  list('fields removed', report.fields.removed.map((field) => `${field.type}.${field.field}: ${field.typeText}`));
  list('fields retyped', report.fields.retyped.map((field) => `${field.type}.${field.field}: ${field.from} -> ${field.to}`));
  list('operations added', report.operations.added);
  list('operations removed', report.operations.removed);
  list('indexes created', report.indexes.created);
  list('indexes dropped', report.indexes.dropped);
  if (report.breakingChanges.length > 0) {
    lines.push('breaking for existing clients:', ...report.breakingChanges.map((change) => `  ${change.type}: ${change.description}`));
  }
  if (report.dangerousChanges.length > 0) {
    lines.push('dangerous for existing clients:', ...report.dangerousChanges.map((change) => `  ${change.type}: ${change.description}`));
  }
  if (report.storedData.length > 0) {
    lines.push('stored data:', ...report.storedData.map((problem) => `  ${problem.blocking ? 'needs --force' : 'note'}: ${problem.message}`));
  }
  if (lines.length === 0) lines.push('no changes');
  return `${lines.join('\n')}\n`;
}
