import { useEffect, useState } from "react";

/** How long "Copied" stays before the line looks as it did. */
const SHOWN_MS = 2_000;

/** A line to paste into a shell, with a button that copies it; `caption` says who it is for. */
export function CopyLine({ text, label, caption }: { text: string; label: string; caption?: string }) {
  const [copied, setCopied] = useState<string>();
  useEffect(() => {
    if (copied === undefined) return;
    const timer = setTimeout(() => setCopied(undefined), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="copy-line">
      {caption && <span className="field-label copy-caption">{caption}</span>}
      <code>{text}</code>
      <button
        type="button"
        className="small"
        aria-label={label}
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setCopied("Copied"),
            () => setCopied("The browser refused to copy; select the line and copy it by hand."),
          )
        }
      >
        Copy
      </button>
      <span role="status" className="muted copied">
        {copied}
      </span>
    </div>
  );
}
