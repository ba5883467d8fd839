import type { OperationService } from "../../shared/operations";

/** The input of the operation that calls service method M (its row's parameters and body). */
export type Input<M extends keyof OperationService> = Parameters<OperationService[M]>[0];
