// One request to the host with a hard deadline, on node:http alone: the status line runs on
// every render of Claude Code's prompt, so it neither loads the typed client (and TypeBox behind
// it) nor waits for a host that does not answer.
import { request } from "node:http";
import type { ConcurrencyStatusEntry, ConcurrencyStatusResponse } from "../../shared/types";
import type { ReportedWindow } from "../../shared/schemas";

export type HostAnswer =
  | { kind: "entry"; entry: ConcurrencyStatusEntry }
  | { kind: "refused-token" }
  | { kind: "unknown-provider" }
  | { kind: "unreachable" }
  | { kind: "no-answer" }
  | { kind: "odd"; status: number };

export interface HostCall {
  url: string;
  token: string;
  providerId: string;
  /** Windows to post; none: only read the status. */
  windows: ReportedWindow[];
  signal: AbortSignal;
}

function send(method: string, url: string, token: string, body: string | undefined, signal: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: false,
      signal,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.end(body);
  });
}

/** Posts the windows (answered with the provider's status) or reads the status; never throws. */
export async function askHost({ url, token, providerId, windows, signal }: HostCall): Promise<HostAnswer> {
  const id = encodeURIComponent(providerId);
  try {
    const { status, text } =
      windows.length > 0
        ? await send("POST", `${url}/concurrency/providers/${id}/windows`, token, JSON.stringify({ windows }), signal)
        : await send("GET", `${url}/concurrency/status`, token, undefined, signal);
    if (status === 401) return { kind: "refused-token" };
    if (status === 404) return { kind: "unknown-provider" };
    if (status !== 200) return { kind: "odd", status };
    const parsed: unknown = JSON.parse(text);
    const entry =
      windows.length > 0
        ? (parsed as ConcurrencyStatusEntry)
        : (parsed as ConcurrencyStatusResponse).providers?.find((p) => p.providerId === providerId);
    if (entry === undefined) return { kind: "unknown-provider" };
    if (typeof entry.providerId !== "string" || typeof entry.limit !== "number") return { kind: "odd", status };
    return { kind: "entry", entry };
  } catch (error) {
    if (signal.aborted) return { kind: "no-answer" };
    return error instanceof SyntaxError ? { kind: "odd", status: 200 } : { kind: "unreachable" };
  }
}
