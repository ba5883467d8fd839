// The changed lines of an edit, never context (SPEC §10), with the value of any key whose name
// says it is a secret masked, so a diff can be shown in a window, a log or a terminal.
const SECRET_NAME = /key|token|secret|password/i;

/** `"NAME": value`, `NAME = value`, `NAME=value`: the value masked when NAME names a secret. */
function maskLine(line: string): string {
  const match = /^(\s*(?:export\s+)?["']?([^"'=:\s]+)["']?\s*[:=]\s*)(.*?)(,?\s*)$/.exec(line);
  if (!match || !SECRET_NAME.test(match[2]!)) return line;
  return `${match[1]}***${match[4]}`;
}

function linesOf(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
}

/** `-old` and `+new` lines in file order; an empty string when nothing changed. */
export function changedLines(before: string | undefined, after: string | undefined): string {
  const a = linesOf(before ?? "");
  const b = linesOf(after ?? "");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  // Longest common subsequence of what is left: configuration files are small.
  const n = midA.length;
  const m = midB.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = midA[i] === midB[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      i++;
      j++;
    } else if (j >= m || (i < n && table[i + 1]![j]! >= table[i]![j + 1]!)) {
      out.push(`-${maskLine(midA[i++]!)}`);
    } else {
      out.push(`+${maskLine(midB[j++]!)}`);
    }
  }
  return out.join("\n");
}
