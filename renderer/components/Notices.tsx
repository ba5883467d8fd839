import { useHeadroom } from "../app-context";

/** App-level messages from the host, such as a corrupt settings file that was moved aside. */
export function Notices() {
  const notices = useHeadroom((state) => state.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <p key={notice} role="status" className="notice">
          {notice}
        </p>
      ))}
    </div>
  );
}
