// SPEC §9 "What it cost" in words, for the terminal and the window alike: `$1.27`, a cent's
// fraction kept visible (a day of small test calls is not "$0.00"), the requests the price
// library could not price named beside it, and `API-equivalent` on a plan said in words.

/** `$1.27`; below a cent four decimals (`$0.0042`), below that `<$0.0001`; nothing is `$0.00`. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd >= 0.01) return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return usd >= 0.0001 ? `$${usd.toFixed(4)}` : "<$0.0001";
}

/** `$1.27`, `$1.27 + 3 unpriced`: an unpriced request's tokens count, its cost does not. */
export function costText(row: { costUsd: number; unpriced: number }): string {
  return row.unpriced > 0 ? `${formatUsd(row.costUsd)} + ${row.unpriced} unpriced` : formatUsd(row.costUsd);
}

/** What the window and the CLI say after a figure that is what the API would have charged. */
export const API_EQUIVALENT = "API-equivalent";
