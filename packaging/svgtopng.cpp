// SPDX-License-Identifier: MIT
// Build-time helper: renders the application icon SVG to the PNG sizes of the hicolor theme, so
// the repository keeps one hand-written source and no binary copies.
// Usage: kinetoscope-svgtopng IN.svg SIZE OUT.png [SIZE OUT.png ...]
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (argc < 4 || argc % 2 != 0) {
        std::fprintf(stderr, "usage: %s IN.svg SIZE OUT.png [SIZE OUT.png ...]\n", argv[0]);
        return 1;
    }
    // No QGuiApplication: raster painting of an SVG without text needs neither a display nor fonts.
    QSvgRenderer renderer(QString::fromLocal8Bit(argv[1]));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "%s: not a valid SVG\n", argv[1]);
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        bool ok = false;
        const int size = QString::fromLocal8Bit(argv[i]).toInt(&ok);
        if (!ok || size <= 0 || size > 4096) {
            std::fprintf(stderr, "%s: not a size in pixels\n", argv[i]);
            return 1;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
            renderer.render(&painter);
        }
        const QString out = QString::fromLocal8Bit(argv[i + 1]);
        if (!image.save(out, "PNG")) {
            std::fprintf(stderr, "%s: cannot write PNG\n", argv[i + 1]);
            return 3;
        }
    }
    return 0;
}
