/**
 * The spec's dropdown rule (§4): opening one closes every open dropdown that is not its ancestor;
 * closing one closes its descendants. Each kit Menu/Popover registers here while open; a dropdown
 * opened from inside another gets it as parent through DropdownParent.
 */
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useState } from 'react';

export interface DropdownNode {
  parent: DropdownNode | null;
  close: () => void;
}

const open = new Set<DropdownNode>();

export const DropdownParent = createContext<DropdownNode | null>(null);

function isAncestor(a: DropdownNode, of: DropdownNode): boolean {
  for (let p = of.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

/** Registers the dropdown while `isOpen`; returns its node, to give its content as DropdownParent. */
export function useDropdown(isOpen: boolean, close: () => void): DropdownNode {
  const parent = useContext(DropdownParent);
  // one node for the component's life; its parent and close stay current
  const [node] = useState<DropdownNode>(() => ({ parent, close }));
  useLayoutEffect(() => {
    Object.assign(node, { parent, close });
  });
  useEffect(() => {
    if (!isOpen) return;
    // (its own descendants too, when both open at once: theirs ran first)
    for (const other of [...open]) if (!isAncestor(other, node) && !isAncestor(node, other)) other.close();
    open.add(node);
    return () => {
      open.delete(node);
      for (const other of [...open]) if (isAncestor(node, other)) other.close();
    };
  }, [isOpen, node]);
  return node;
}

/** A dropdown's open state, controlled (`isOpen` + `onOpenChange`) or its own, registered above. */
export function useDropdownState(isOpen?: boolean, onOpenChange?: (open: boolean) => void) {
  const [own, setOwn] = useState(false);
  const value = isOpen ?? own;
  const set = useCallback(
    (next: boolean) => {
      setOwn(next);
      onOpenChange?.(next);
    },
    [onOpenChange],
  );
  const close = useCallback(() => set(false), [set]);
  const node = useDropdown(value, close);
  return { isOpen: value, setOpen: set, node };
}
