// Native notifications; clicking one brings the window forward.
import { Notification } from "electron";
import type { Alert } from "./alerts";

export function createNotifier(iconPath: string, onClick: () => void): (alert: Alert) => void {
  // Electron forgets a notification's handlers once it is garbage collected: keep it until done.
  const shown = new Set<Notification>();
  return (alert) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: alert.title, body: alert.body, icon: iconPath });
    const done = () => shown.delete(notification);
    notification.on("click", () => {
      done();
      onClick();
    });
    notification.on("close", done);
    notification.on("failed", done);
    shown.add(notification);
    notification.show();
  };
}
