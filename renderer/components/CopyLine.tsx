import { useState } from "react";

/** A line to paste into a shell, with a button that copies it. */
export function CopyLine({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<string>();
  return (
    <div className="copy-line">
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
