// A term that explains itself on hover and on keyboard focus (SPEC §4): the explanation is
// the term's description, so a screen reader hears it too, and it floats, so showing it
// moves nothing.
import { useId } from "react";

export function Explained({ term, explanation }: { term: string; explanation: string }) {
  const id = useId();
  return (
    <span className="explained">
      <span className="term" tabIndex={0} aria-describedby={id}>
        {term}
      </span>
      <span role="tooltip" id={id} className="tip">
        {explanation}
      </span>
    </span>
  );
}
