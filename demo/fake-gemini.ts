// Gemini's generateContent as the fake provider speaks it: the answer object, its `alt=sse`
// stream (one GenerateContentResponse per `data:` event, the last with finishReason and
// usageMetadata) and Google's error body, close enough for Gemini CLI and the proxy.

function response(model: string, text: string, done: boolean, events: number): unknown {
  return {
    candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0, ...(done ? { finishReason: "STOP" } : {}) }],
    ...(done ? { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: events, totalTokenCount: 10 + events } } : {}),
    modelVersion: model,
  };
}

export function geminiBody(model: string, words: string[]): unknown {
  return response(model, words.join(""), true, words.length);
}

export function geminiEvents(model: string, words: string[]): string[] {
  return words.map((word, i) => `data: ${JSON.stringify(response(model, word, i === words.length - 1, words.length))}\r\n\r\n`);
}

const GOOGLE_STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

/** Google's error; a 429 says how long to wait in a RetryInfo detail, as Gemini's API does. */
export function googleErrorBody(status: number, message: string, retryDelay?: string): unknown {
  const details = retryDelay === undefined ? [] : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay }];
  return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? "UNKNOWN", ...(details.length > 0 ? { details } : {}) } };
}

/** The model a Gemini generation path names, e.g. /v1beta/models/gemini-2.5-flash:generateContent. */
export function geminiModelOf(path: string): string {
  return /\/models\/([^/:]+):/.exec(path)?.[1] ?? "gemini-fake";
}
