import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';
import { messageParts } from './message-links';

/**
 * The scanner's message as it wrote it (line breaks kept, long words wrapped): its links
 * `[text](id)` go to the related location with that id on this page (`related-location-<id>`)
 * when the finding lists it, `[text](https://…)` to the address; other markup stays text.
 */
export function MessageText({
  text,
  relatedIds = new Set<number>(),
}: {
  text: string;
  relatedIds?: ReadonlySet<number>;
}) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="finding-message">
      {messageParts(text).map((part, i) => {
        switch (part.kind) {
          case 'text':
            return <Fragment key={i}>{part.text}</Fragment>;
          case 'url':
            return (
              <Anchor key={i} href={part.url} target="_blank" rel="noopener noreferrer" size="sm">
                {part.text}
              </Anchor>
            );
          case 'related':
            return relatedIds.has(part.id) ? (
              <Anchor
                key={i}
                href={`#related-location-${part.id}`}
                size="sm"
                data-testid="message-link"
                data-related={part.id}
              >
                {part.text}
              </Anchor>
            ) : (
              <Fragment key={i}>{part.text}</Fragment>
            );
        }
      })}
    </Text>
  );
}
