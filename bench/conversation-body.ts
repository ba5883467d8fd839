// A Messages request the shape Claude Code sends mid-session: a system prompt, tools and a
// conversation of `turns` turns, each a text and a tool call. 200 turns is about 295 KB.
export function conversationBody(turns: number): Buffer {
  const messages = Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: [
      { type: "text", text: `${"step ".repeat(240)}"quoted" \\ ${i}` },
      { type: "tool_use", id: `toolu_${i}`, name: "Read", input: { file_path: "/home/me/src/api/app.ts", offset: i, limit: 200 } },
    ],
  }));
  const tools = Array.from({ length: 30 }, (_, i) => ({ name: `tool${i}`, input_schema: { type: "object", properties: { path: { type: "string" } } } }));
  return Buffer.from(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 32_000, system: [{ type: "text", text: "s".repeat(20_000) }], messages, tools, stream: true }));
}
