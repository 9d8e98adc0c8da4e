// An article's Markdown as formatted text (react-markdown: React elements, never raw HTML; links
// with unsafe protocols dropped), in Mantine's typography styles.
import { Typography } from '@mantine/core';
import ReactMarkdown from 'react-markdown';

export function Markdown({ text }: { text: string }) {
  return (
    <Typography fz="sm">
      <ReactMarkdown>{text}</ReactMarkdown>
    </Typography>
  );
}
