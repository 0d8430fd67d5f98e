"""Reading the WAV files of the audio datasets (YesNo, SpeechCommands, LJSpeech, CMUArctic) with
the standard library's ``wave``.

MindSpore 2.10 serves a file's samples as a float32 ``(1, N)`` waveform, each 16-bit sample
divided by 32767 (measured: 16384 -> 0.50001526, -32768 -> -1.0000305), and the sample rate of
the header. It reads a fixed 44-byte header and takes whatever follows as 16-bit mono samples;
here the RIFF chunks are read as they are (a ``LIST`` chunk before the data is skipped, not
served as samples), and a file that is not 16-bit mono PCM, or that ends before its data does,
is a RuntimeError naming it (MindSpore serves its bytes as other samples).
"""
import wave

import numpy as np

_SCALE = np.float32(32767)


def read_wav(path, api):
    """(waveform float32 (1, N), sample rate) of a 16-bit mono PCM WAV file."""
    try:
        with wave.open(path, "rb") as f:
            channels, width, rate, frames = (f.getnchannels(), f.getsampwidth(),
                                              f.getframerate(), f.getnframes())
            data = f.readframes(frames)
    except (OSError, EOFError, wave.Error) as exc:
        raise RuntimeError(f"Invalid file, {api} failed to read the WAV file {path}: {exc}") \
            from exc
    if channels != 1 or width != 2:
        raise RuntimeError(f"Invalid file, {api} reads 16-bit mono PCM WAV files, but {path} has "
                           f"{channels} channel(s) of {8 * width}-bit samples.")
    if len(data) < 2 * frames:
        raise RuntimeError(f"Invalid file, the WAV file {path} ends after {len(data) // 2} of "
                           f"its {frames} samples.")
    samples = np.frombuffer(data, dtype="<i2").astype(np.float32) / _SCALE
    return samples.reshape(1, -1), rate
