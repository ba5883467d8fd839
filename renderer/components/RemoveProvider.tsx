import { useHeadroomStore, useIntents } from "../app-context";
import { ConfirmButton } from "./ConfirmButton";

/**
 * Where focus goes once a provider is gone (its details close with it): the next card, else
 * the previous one, else the add form.
 */
function focusAfterRemoval(providerId: string, close: () => void): () => void {
  const card = document.getElementById(`provider-${providerId}`);
  const neighbour = (card?.nextElementSibling ?? card?.previousElementSibling)?.querySelector<HTMLElement>("[data-focus=heading]");
  return () => {
    close();
    const target = neighbour?.isConnected ? neighbour : document.querySelector<HTMLElement>("[data-focus=new-provider]");
    target?.focus();
  };
}

/** Removing answers every waiter with an error, so it asks once more. */
export function RemoveProvider({ providerId }: { providerId: string }) {
  const intents = useIntents();
  const store = useHeadroomStore();
  return (
    <ConfirmButton
      name={`Remove ${providerId}`}
      text="Remove"
      question={`Remove ${providerId}? Agents waiting for it get an error.`}
      confirmName={`Yes, remove ${providerId}`}
      action={() => intents.removeProvider(providerId)}
      onConfirm={() => focusAfterRemoval(providerId, () => store.setState({ details: undefined }))}
    />
  );
}
