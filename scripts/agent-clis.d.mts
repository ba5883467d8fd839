export const AGENT_CLIS: Record<string, string>;
export function agentsDir(env?: NodeJS.ProcessEnv): string;
export function missingClis(dir?: string): string[];
