// The tiny program the exec storm starts: exits at once, so the exec itself is what is measured.
int main()
{
    return 0;
}
