// Server-Sent Events framing, read from a streaming fetch (EventSource cannot send the bearer
// token). Only what the host sends is handled: `event:` and `data:` lines, comment keepalives.

export interface SseMessage {
  event: string;
  data: string;
}

export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = "";

  function dispatch(block: string): void {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length > 0) onMessage({ event, data: data.join("\n") });
  }

  return {
    push(chunk: string): void {
      buffer += chunk;
      for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
        const separator = buffer.slice(end).match(/^\r?\n\r?\n/)?.[0].length ?? 2;
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + separator);
      }
    },
  };
}
