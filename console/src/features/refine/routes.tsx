// The Refine with AI page (lazy-loaded), under /console/refine/{conversationId}/{eventId}: opened from
// an agent reply in a conversation.
import { useParams } from 'wouter';
import { RefinePage } from './components/refine-page';

export default function RefinePageRoute() {
  const { conversationId, eventId } = useParams<{ conversationId: string; eventId: string }>();
  return <RefinePage key={eventId} conversationId={conversationId} eventId={eventId} />;
}
