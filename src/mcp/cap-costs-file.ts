import { CAP_NAMES, type Cap } from './caps.js';

/** src/mcp/cap-costs.ts with its CAP_COSTS literal replaced by `costs` (what `npm run readme` writes). */
export function withCosts(source: string, costs: Record<Cap, number>): string {
  const body = CAP_NAMES.map((c) => `  ${c}: ${costs[c]},`).join('\n');
  return source.replace(
    /export const CAP_COSTS: Record<Cap, number> = \{\n[^}]*\};/,
    `export const CAP_COSTS: Record<Cap, number> = {\n${body}\n};`,
  );
}
