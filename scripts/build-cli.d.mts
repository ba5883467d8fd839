// Types for scripts/build-cli.mjs, which the bench and the tests import.
export declare const CLI_BUNDLE: string;
export declare function buildCli(): Promise<void>;
