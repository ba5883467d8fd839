import { useIntents } from "../app-context";
import { ConfirmButton } from "./ConfirmButton";

/** Where focus goes once a card is gone: the next card, else the previous one, else the add form. */
function focusAfterRemoval(from: HTMLElement): () => void {
  const card = from.closest(".card");
  const neighbour = (card?.nextElementSibling ?? card?.previousElementSibling)?.querySelector<HTMLElement>("[data-focus=heading]");
  return () => {
    const target = neighbour?.isConnected ? neighbour : document.querySelector<HTMLElement>("[data-focus=new-provider]");
    target?.focus();
  };
}

/** Removing answers every waiter with an error, so it asks once more. */
export function RemoveProvider({ providerId }: { providerId: string }) {
  const intents = useIntents();
  return (
    <ConfirmButton
      name={`Remove ${providerId}`}
      text="Remove"
      question={`Remove ${providerId}? Agents waiting for it get an error.`}
      confirmName={`Yes, remove ${providerId}`}
      action={() => intents.removeProvider(providerId)}
      onConfirm={focusAfterRemoval}
    />
  );
}
