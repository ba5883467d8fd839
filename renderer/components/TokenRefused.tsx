// The page a browser window shows when it cannot use the API: nothing of the dashboard behind
// it, and different words for a token that is missing and one that is wrong.
import { useHeadroom } from "../app-context";

export function TokenRefused() {
  const tokenGiven = useHeadroom((state) => state.tokenGiven);
  return (
    <main className="refused">
      <h1>Headroom</h1>
      <div role="status" className="refused-box">
        {tokenGiven ? (
          <>
            <h2>This window's token was refused</h2>
            <p>
              The token in the address does not match this Headroom. It changes when the data folder changes, or when
              HEADROOM_TOKEN is set. Open the address that <code>npm run serve</code> printed most recently (it ends in{" "}
              <code>#token=…</code>).
            </p>
          </>
        ) : (
          <>
            <h2>This window has no token</h2>
            <p>
              Headroom only answers windows that bring its token. Open the address that <code>npm run serve</code>{" "}
              printed (it ends in <code>#token=…</code>), or add <code>#token=</code> and the contents of the file{" "}
              <code>api-token</code> in the data folder to this address.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
