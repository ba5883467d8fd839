import { useState } from "react";

/** A line to paste into a shell, with a button that copies it; `caption` says who it is for. */
export function CopyLine({ text, label, caption }: { text: string; label: string; caption?: string }) {
  const [copied, setCopied] = useState<string>();
  return (
    <div className="copy-line">
      {caption && <span className="muted copy-caption">{caption}</span>}
      <code>{text}</code>
      <button
        type="button"
        className="small"
        aria-label={label}
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setCopied("Copied"),
            () => setCopied("Copy refused by the browser; select the line instead"),
          )
        }
      >
        Copy
      </button>
      {copied && (
        <span role="status" className="muted">
          {copied}
        </span>
      )}
    </div>
  );
}
