/**
 * A chat message's text: http(s) links become anchors, everything else stays text (React text
 * nodes: no HTML is ever interpreted, so `<script>` shows as typed). SPEC C7.
 */
import { splitChatText } from '@wb/proto';

export function ChatText({ text }: { text: string }) {
  return (
    <>
      {splitChatText(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
