import { Module } from '@nestjs/common';
import { DownloadLinks } from './download-links';

/** Single-use download links: issued by the routes that offer a download, redeemed by AccessGuard. */
@Module({ providers: [DownloadLinks], exports: [DownloadLinks] })
export class DownloadLinksModule {}
