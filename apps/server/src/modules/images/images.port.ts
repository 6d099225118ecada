import type { FastifyReply, FastifyRequest } from 'fastify';

/** Makes a source picture for an image path that has no file (the demo drawer), or null when it has none. */
export type DrawMissingImage = (path: string) => Promise<Buffer | null>;

/** What other modules may ask of the image host. */
export interface ImagesPort {
  /** A priced chapter's page path with an expiring grant in front (docs/api.md section 5). */
  grantPage(path: string): string;
  /** Answers an image URL (`{path}_{width}_0.img`); false, with nothing sent, when the URL is not one. */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** An unencrypted WebP of an image for the console's previews (image-host.ts), or null. */
  preview(imagePath: string, width: number): Promise<Buffer | null>;
  /** Forgets which pages are free (a price changed): the next request without a grant asks the database. */
  forgetFreePages(): void;
}
