// Counts component renders in test and bench builds only (Vite's mode), so the bench can show
// that a card whose entry did not change is not rendered again. The shipped window skips it.
const COUNTING = import.meta.env.MODE === "test" || import.meta.env.MODE === "bench";

type Counted = { __headroomRenders?: Record<string, number> };

export function countRender(name: string): void {
  if (!COUNTING) return;
  const counts = ((globalThis as Counted).__headroomRenders ??= {});
  counts[name] = (counts[name] ?? 0) + 1;
}
