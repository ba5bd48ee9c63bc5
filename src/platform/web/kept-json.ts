import type { Request, Response } from 'express';

import type { AnswerCache, KeptJson } from '../answer-cache';
import type { Caller } from '../caller';
import { codingFor, sendCoded } from './compression';

/**
 * Sends a kept answer to `request` (see AnswerCache) in the coding the client asks for: its bytes as kept, or
 * compressed once for every request after, so that a repeated read compresses nothing.
 */
export async function sendKeptAnswer(
  req: Request,
  res: Response,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  answer: KeptJson,
  contentType = 'application/json',
): Promise<void> {
  const coding = codingFor(req, answer.bytes);
  const chunks = await answers.bytesIn(caller, request, answer, coding);
  sendCoded(res, coding);
  res
    .status(200)
    .type(contentType)
    .setHeader(
      'Content-Length',
      chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    );
  // Held whole already: written at once, for the socket to take as it can, in one system call (end() uncorks).
  res.cork();
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  res.end(chunks[chunks.length - 1]);
}
