// Knowledge generation (lazy-loaded inside the Knowledge page at /console/knowledge/generate).
import { GeneratePage } from './components/generate-page';

export default GeneratePage;
