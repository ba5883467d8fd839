// OpenAI's Responses API (POST /v1/responses) as the fake provider speaks it: the answer
// object and the typed event stream (response.created … response.completed) that the
// `openai` SDK and Codex read. Field names follow the published wire format.

interface ResponseText {
  id: string;
  model: string;
  words: string[];
}

const MESSAGE_ID = "msg_fake";

function outputText(text: string) {
  return { type: "output_text", text, annotations: [] };
}

function message(text: string, status: "in_progress" | "completed") {
  return {
    type: "message",
    id: MESSAGE_ID,
    status,
    role: "assistant",
    content: status === "completed" ? [outputText(text)] : [],
  };
}

function responseObject(answer: ResponseText, status: "in_progress" | "completed") {
  const text = answer.words.join("");
  const done = status === "completed";
  return {
    id: answer.id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: answer.model,
    output: done ? [message(text, "completed")] : [],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    error: null,
    incomplete_details: null,
    usage: done
      ? {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: answer.words.length,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 10 + answer.words.length,
        }
      : null,
  };
}

/** The non-streaming answer: a completed response with one assistant message. */
export function responsesBody(model: string, words: string[]): unknown {
  return responseObject({ id: "resp_fake", model, words }, "completed");
}

/** The SSE frames of a streamed response, each `event: <type>` with a numbered `data`. */
export function responsesEvents(model: string, words: string[]): string[] {
  return responsesMessages(model, words).map((data) => `event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`);
}

/** The same events as WebSocket messages (Codex's Responses transport): one JSON text each. */
export function responsesMessages(model: string, words: string[]): string[] {
  const answer: ResponseText = { id: "resp_fake", model, words };
  const text = words.join("");
  const part = { item_id: MESSAGE_ID, output_index: 0, content_index: 0 };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: responseObject(answer, "in_progress") },
    { type: "response.in_progress", response: responseObject(answer, "in_progress") },
    { type: "response.output_item.added", output_index: 0, item: message("", "in_progress") },
    { type: "response.content_part.added", ...part, part: outputText("") },
    ...words.map((delta) => ({ type: "response.output_text.delta", ...part, delta, logprobs: [] })),
    { type: "response.output_text.done", ...part, text, logprobs: [] },
    { type: "response.content_part.done", ...part, part: outputText(text) },
    { type: "response.output_item.done", output_index: 0, item: message(text, "completed") },
    { type: "response.completed", response: responseObject(answer, "completed") },
  ];
  return events.map((event, sequence) => JSON.stringify({ ...event, sequence_number: sequence }));
}
