/** An inbound email's attachment as stored: its bytes are in the uploads storage under `key`. */
export interface StoredAttachment {
  filename: string | null;
  contentType: string;
  size: number;
  key: string;
}

export interface Address {
  email: string;
  name: string | null;
}

export interface AuthResults {
  spf: string;
  dkim: string;
  dmarc: string;
}

export interface RepliedEmail {
  id: string;
  campaignId: string | null;
  executionId: string | null;
}
