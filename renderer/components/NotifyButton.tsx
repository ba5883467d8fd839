// `Notify me`: the browser window asks for the Notification API only when the user wants it.
// The Electron app notifies natively from the main process, so it has no such button.
import { useEffect, useState } from "react";
import { useHeadroomStore } from "../app-context";
import { watchNotifications } from "../store/notifications";

const supported = () => typeof Notification !== "undefined" && window.headroom === undefined;

export function NotifyButton() {
  const store = useHeadroomStore();
  const [permission, setPermission] = useState(() => (supported() ? Notification.permission : "denied"));
  useEffect(() => {
    if (!supported()) return;
    return watchNotifications(
      store,
      (note) => new Notification(note.title, { body: note.body, tag: note.title }),
      () => Notification.permission === "granted",
    );
  }, [store]);
  if (!supported()) return null;
  const on = permission === "granted";
  return (
    <button
      type="button"
      className="small"
      aria-label="Notify me"
      aria-pressed={on}
      title={permission === "denied" ? "The browser blocks notifications for this page; allow them in its site settings." : undefined}
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      {on ? "Notify me · on" : "Notify me"}
    </button>
  );
}
